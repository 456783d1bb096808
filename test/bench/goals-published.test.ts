/**
 * docs/performance.md lists the goals of bench/goals.ts under "Targets met and missed": the same
 * goals, with the bounds the report prints, so a goal changed in one place cannot be left stale in
 * the other.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { checkGoals, GOALS } from '../../bench/goals.js';
import { publishedSection } from '../helpers/published-docs.js';

it('docs/performance.md > the targets table > lists every goal of bench/goals.ts, with its bound, and no other', () => {
  const { file, text } = publishedSection('Targets met and missed');
  assert.equal(file, 'docs/performance.md');
  const rows = text
    .split('\n')
    .filter((line) => /^\| (SQLite|PostgreSQL) \|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => `${cells[1]} ${cells[2]} ${cells[4]}`);
  // checkGoals with no results gives each goal's database, scenario and bound as the report prints them.
  const goals = checkGoals([]).map((goal) => `${goal.database} ${goal.scenario} ${goal.bound}`);
  assert.equal(goals.length, GOALS.length);
  assert.deepEqual(rows, goals);
});
