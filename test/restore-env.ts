// Tests that set variables for the code under test put the environment back with this, never with
// `process.env = saved`: that leaves a plain object in process.env, which node's own readers of the
// environment (os.tmpdir(), os.homedir()) do not read. With the unit loop's isolate: false the next
// file in the worker inherits it: a later `process.env.TMPDIR = …` then no longer moves tmpdir().

/** Makes process.env, in place, hold exactly `saved`. */
export function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!Object.hasOwn(saved, name)) delete process.env[name];
  Object.assign(process.env, saved);
}
