/**
 * The README's short tour ("A short tour") and the full walk-through of docs/api.md
 * ("Walk-through"), each run as a reader runs it: every command of the section's first `sh`
 * block, in order, with bash and curl, against the real service on a free port with a fresh
 * SQLite file. KEY and BASE are the reader's two variables; http://localhost:8080 becomes
 * the service's address; a command whose URL says `<from the Link header>` gets the next link of
 * the answer before it. Each command ends with the answer its comment promises, `# → 201` (or
 * `# → 200 with Link`, `# → 200, no Link`), and gets exactly that; a `<from the Link header>` URL
 * may add parameters after the cursor (`&wait=5`). A command ending in `&` (the README's tiny
 * webhook receiver) runs in the background on a free port in place of its `9000`, the service
 * allowing 127.0.0.1 as a webhook host as the README says; it must print every event type its
 * `# → prints …` comment names. Without curl the test is reported as skipped.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { NO_CURL } from '../helpers/machine-tools.js';
import { publishedSection } from '../helpers/published-docs.js';
import { runCli, spawnService, stopAllServices } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

const README_ORIGIN = 'http://localhost:8080';
const FROM_LINK = '<from the Link header>';

interface WalkthroughStep {
  /** The command as the docs show it, continuation lines joined. */
  command: string;
  /** The answer's status; for a command run in the background, what it must print (event types). */
  status: number | string[];
  /** `true`: the answer carries `Link: <…>; rel="next"`; `false`: it does not; undefined: not said. */
  link: boolean | undefined;
}

/** The commands of a walk-through section, each with the answer its `# → …` marker promises. */
function walkthroughSteps(title: string): WalkthroughStep[] {
  const section = publishedSection(title);
  const block = /```sh\n([\s\S]*?)```/.exec(section.text)?.[1];
  assert.ok(block, `${section.file}: no sh block under "${title}"`);
  const logical: string[] = [];
  for (const line of block.split('\n')) {
    const previous = logical.at(-1);
    if (previous?.endsWith('\\')) logical[logical.length - 1] = `${previous}\n${line}`;
    else logical.push(line);
  }
  return logical
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#') && !/^(KEY|BASE)=/.test(line))
    .map((command) => {
      const background = /&\s*#\s*→\s*prints\b(.*)$/.exec(command);
      if (background) return { command, status: [...background[1]!.matchAll(/\b(?:pet|order)\.[a-z]+\b/g)].map((match) => match[0]), link: undefined };
      const marker = /#\s*→\s*(\d{3})(.*)$/.exec(command);
      assert.ok(marker, `${section.file} "${title}": this command does not say what it answers (end it with "# → 200"):\n${command}`);
      const rest = marker[2]!;
      return { command, status: Number(marker[1]), link: /\bno Link\b/.test(rest) ? false : /\bwith Link\b/.test(rest) ? true : undefined };
    });
}

/** The target of `Link: <…>; rel="next"`, or undefined. */
function nextLink(headers: string): string | undefined {
  const field = headers.split(/\r?\n/).find((line) => /^link:/i.test(line));
  return field ? /<([^>]+)>\s*;\s*rel="next"/.exec(field)?.[1] : undefined;
}

after(() => stopAllServices());

for (const { title, where, fewest } of [
  { title: 'A short tour', where: 'README', fewest: 8 },
  { title: 'Walk-through', where: 'docs/api.md', fewest: 20 },
]) {
  it(
    `${where} "${title}" > every command run in order with bash and curl on a fresh store > answers what its comment says`,
    { skip: NO_CURL, timeout: 120_000 },
    async () => {
      const steps = walkthroughSteps(title);
      assert.ok(steps.length >= fewest, `only ${steps.length} commands found in "${title}"`);
      await runWalkthrough(steps);
    },
  );
}

/** Runs the steps in order on a fresh store and checks each answer against its marker. */
async function runWalkthrough(steps: WalkthroughStep[]): Promise<void> {
  const place = await createEmptyDatabaseUrl('sqlite');
  const work = mkdtempSync(join(tmpdir(), 'animal-store-walkthrough-'));
  try {
    await runCli(['migrate'], { DATABASE_URL: place.url });
    const created = await runCli(['keys', 'create', '--name', 'walkthrough'], { DATABASE_URL: place.url });
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim().split('\n').at(-1)!;
    const service = await spawnService({ databaseUrl: place.url, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    const receiverPort = await freePort();
    const headersFile = join(work, 'headers');
    // curl as the reader runs it, plus where the status and the headers go.
    const prelude = `curl() { command curl -sS -o /dev/null -D '${headersFile}' -w '%{http_code}' "$@"; }\n`;

    const answered: { command: string; status: number | string | string[]; link: boolean | undefined }[] = [];
    const background: ChildProcess[] = [];
    const receivers: { step: WalkthroughStep; expected: string[] }[] = [];
    let receiverOutput = '';
    let previousLink: string | undefined;
    for (const step of steps) {
      let command = step.command;
      if (command.includes(FROM_LINK)) {
        const shown = /"(http:\/\/localhost:8080[^"]*)"/.exec(command)?.[1];
        assert.ok(shown, `no URL to replace in:\n${command}`);
        if (previousLink === undefined) {
          answered.push({ command: step.command, status: 'not run: the answer before it had no Link', link: step.link });
          continue;
        }
        // The docs show the real link, but for the cursor: only the service makes one.
        const link = `${README_ORIGIN}${previousLink.replace(/cursor=[^&]*/, `cursor=${FROM_LINK}`)}`;
        assert.ok(
          shown.startsWith(link) && /^(&[a-z]+=[^&]*)*$/.test(shown.slice(link.length)),
          `the link the docs show: ${shown} is not ${link} and parameters`,
        );
        command = command.replace(shown, `${service.baseUrl}${previousLink}${shown.slice(link.length)}`);
      }
      command = command
        .replaceAll(README_ORIGIN, service.baseUrl)
        .replaceAll(':9000', `:${receiverPort}`)
        .replaceAll('listen(9000)', `listen(${receiverPort})`);
      if (Array.isArray(step.status)) {
        const receiver = spawn('bash', ['-c', command.replace(/&\s*#.*$/, '')], {
          env: { PATH: process.env.PATH },
          stdio: ['ignore', 'pipe', 'inherit'],
          detached: true,
        });
        background.push(receiver);
        receiver.stdout.setEncoding('utf8').on('data', (chunk: string) => (receiverOutput += chunk));
        await waitUntil(() => isListening(receiverPort), { deadlineMs: 10_000, what: "the README's receiver to listen" });
        receivers.push({ step, expected: step.status });
        continue;
      }
      rmSync(headersFile, { force: true });
      const bash = spawn('bash', ['-c', prelude + command], {
        env: { PATH: process.env.PATH, KEY: key, BASE: `${service.baseUrl}/v1` },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      bash.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      await once(bash, 'close');
      const headers = readFileSync(headersFile, 'utf8');
      previousLink = nextLink(headers);
      answered.push({ command: step.command, status: Number(out.trim()), link: step.link === undefined ? undefined : previousLink !== undefined });
    }
    // The receiver hears of the changes after their answers: delivered off the request path.
    for (const { step, expected } of receivers) {
      const printed = () => expected.filter((type) => receiverOutput.includes(`"type":"${type}"`));
      await waitUntil(() => printed().length === expected.length, { deadlineMs: 30_000, what: `the receiver to print ${expected.join(', ')}` }).catch(
        () => undefined,
      );
      answered.splice(steps.indexOf(step), 0, { command: step.command, status: printed(), link: undefined });
    }
    for (const child of background) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    assert.deepEqual(answered, steps);
  } finally {
    await stopAllServices();
    rmSync(work, { recursive: true, force: true });
    await place.remove();
  }
}

/** A port nothing listens on now, for the README's receiver. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Whether something accepts connections on 127.0.0.1:port. */
async function isListening(port: number): Promise<boolean> {
  const socket = createConnection({ host: '127.0.0.1', port });
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}
