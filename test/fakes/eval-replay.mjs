// The `command` agent of test/e2e/eval.test.ts: replays recorded answers, found by the checkout's
// project name, the round and the call's name: <recordings>/<project>/round-<n>/<name>.*, where
// <project> is package.json's name, else the last part of go.mod's module path, else
// pyproject.toml's [project] name. Beside <name>.answer.txt (what the call prints):
// - <name>.run.json   { "command", "expect" }: a command the call runs in the checkout first, as a
//                     fixer runs the project's tests; its output must match the `expect` pattern,
//                     or the call fails (so a fix is only made where the project's runner works);
// - <name>.reverse.patch: a patch the call applies in reverse (`git apply -R`), e.g. the PR's own;
// - <name>.files.json  { path: text }: files the call writes;
// - <name>.usage.json  what it reports having spent ($REVIEW_LOOP_USAGE_FILE).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

readFileSync(0);
const env = process.env;
const project = () => {
  if (existsSync('package.json')) return JSON.parse(readFileSync('package.json', 'utf8')).name;
  const mod = existsSync('go.mod') && /^module\s+(\S+)/m.exec(readFileSync('go.mod', 'utf8'));
  if (mod) return mod[1].split('/').pop();
  if (existsSync('pyproject.toml')) {
    let section = '';
    for (const line of readFileSync('pyproject.toml', 'utf8').split('\n')) {
      const header = /^\[([^\]]+)\]\s*$/.exec(line);
      if (header) section = header[1];
      const name = section === 'project' && /^name\s*=\s*"([^"]+)"/.exec(line);
      if (name) return name[1];
    }
  }
  console.error('replay: no package.json, go.mod or pyproject.toml names this project');
  process.exit(1);
};
const base = path.join(process.argv[2], project(), `round-${env.REVIEW_LOOP_ROUND}`, env.REVIEW_LOOP_AGENT_NAME);
if (existsSync(`${base}.run.json`)) {
  const { command, expect } = JSON.parse(readFileSync(`${base}.run.json`, 'utf8'));
  const r = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (!new RegExp(expect).test(output)) {
    console.error(`replay: ${command} exited ${r.status}, its output does not match /${expect}/:\n${output}`);
    process.exit(1);
  }
  console.error(`replay: ran ${command}: exit ${r.status}`);
}
if (existsSync(`${base}.reverse.patch`)) execFileSync('git', ['apply', '-R', `${base}.reverse.patch`]);
if (existsSync(`${base}.files.json`)) {
  for (const [file, text] of Object.entries(JSON.parse(readFileSync(`${base}.files.json`, 'utf8')))) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
if (existsSync(`${base}.usage.json`) && env.REVIEW_LOOP_USAGE_FILE)
  copyFileSync(`${base}.usage.json`, env.REVIEW_LOOP_USAGE_FILE);
if (!existsSync(`${base}.answer.txt`)) {
  console.error(`no recorded answer at ${base}`);
  process.exit(1);
}
process.stdout.write(readFileSync(`${base}.answer.txt`), () => process.exit(0));
