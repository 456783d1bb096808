/**
 * The goals the bench's figures are read against, in one place: each names a database, a
 * scenario, the figure it bounds and the bound. The report shows each as met, missed or not
 * measured; nothing asserts them (a run on a busy machine may miss one with nothing wrong).
 */
import type { GoalCheck, ScenarioResult } from './report.js';

interface Goal {
  database: 'SQLite' | 'PostgreSQL';
  scenario: string;
  goal: string;
  /** The figure bounded; undefined when the run did not measure it. */
  figure: (result: ScenarioResult) => number | undefined;
  atMost?: number;
  atLeast?: number;
  /** The goal is about this many connections: a run at another number does not measure it. */
  connections?: number;
}

export const GOALS: Goal[] = [
  {
    database: 'PostgreSQL',
    scenario: 'list20',
    goal: 'CPU µs/req ÷ the peer’s (database backends included in both)',
    figure: (r) => r.peerCpuRatio,
    atMost: 1.2,
  },
  {
    database: 'PostgreSQL',
    scenario: 'getPet',
    goal: 'CPU µs/req ÷ the peer’s (database backends included in both)',
    figure: (r) => r.peerCpuRatio,
    atMost: 1.2,
  },
  {
    database: 'PostgreSQL',
    scenario: 'list20',
    goal: 'p99 ÷ the peer’s p99, at 50 connections',
    figure: (r) => (r.peer ? r.service.p99Ms / r.peer.p99Ms : undefined),
    atMost: 2,
    connections: 50,
  },
  {
    database: 'SQLite',
    scenario: 'list20',
    goal: 'CPU ratio to the bare baseline ÷ the peer’s CPU ratio to it (= peer µs/req ÷ service µs/req)',
    figure: (r) => (r.peerCpuRatio ? 1 / r.peerCpuRatio : undefined),
    atLeast: 1.5,
  },
  { database: 'PostgreSQL', scenario: 'list20-seq16', goal: 'p99.9 ms, 16 sequential clients', figure: (r) => r.service.p999Ms, atMost: 15, connections: 16 },
  {
    database: 'PostgreSQL',
    scenario: 'list20-seq16',
    goal: 'slowest answer (max) ms, 16 sequential clients',
    figure: (r) => r.service.maxMs,
    atMost: 30,
    connections: 16,
  },
];

/** Each goal read off the results: met, missed, or not measured (and why). */
export function checkGoals(results: ScenarioResult[], goals: Goal[] = GOALS): GoalCheck[] {
  return goals.map((goal) => {
    const bound = goal.atMost === undefined ? `≥ ${goal.atLeast}` : `≤ ${goal.atMost}`;
    const check = { database: goal.database, scenario: goal.scenario, goal: goal.goal, bound };
    const result = results.find((r) => r.database === goal.database && r.scenario === goal.scenario);
    if (!result) return { ...check, outcome: 'not measured', reason: `${goal.scenario} not run on ${goal.database}` };
    if (goal.connections !== undefined && result.connections !== goal.connections) {
      return { ...check, outcome: 'not measured', reason: `run at ${result.connections} connections` };
    }
    const measured = goal.figure(result);
    if (measured === undefined || !Number.isFinite(measured)) return { ...check, outcome: 'not measured', reason: 'no figure' };
    const met = (goal.atMost === undefined || measured <= goal.atMost) && (goal.atLeast === undefined || measured >= goal.atLeast);
    return { ...check, measured, outcome: met ? 'met' : 'missed' };
  });
}
