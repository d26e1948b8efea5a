// What every git child of the action is told so that nothing an agent or a verify command
// wrote can run code inside it or change what it sees: no global, XDG or system config or
// attributes, no replace objects or grafts, and command-line values for the keys that start a
// program. The checkout's own .git/config and info/attributes are pinned by config-guard.ts.

/** Environment of every command (runner.ts). */
export const ISOLATION_ENV: Readonly<Record<string, string>> = {
  // git(1) GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: neither $HOME/.gitconfig nor
  // $XDG_CONFIG_HOME/git/config nor the system file is read, whatever HOME and XDG_CONFIG_HOME say.
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  // No $(prefix)/etc/gitattributes (gitattributes(5); git's attr.c honours GIT_ATTR_NOSYSTEM).
  GIT_ATTR_NOSYSTEM: '1',
  // git-replace(1): "The GIT_NO_REPLACE_OBJECTS environment variable can be set to achieve the
  // same effect as the --no-replace-objects option". git push never uses replacements ("except
  // those doing reachability traversal (prune, pack transfer and fsck)"), so the guard must
  // not either: it has to see the objects the push sends.
  GIT_NO_REPLACE_OBJECTS: '1',
  // Grafts (gitrepository-layout(5) info/grafts) are not turned off by GIT_NO_REPLACE_OBJECTS
  // (checked with git 2.39). GIT_GRAFT_FILE (git's environment.h) moves the graft file; nothing
  // can be created under /dev/null, and git reads a missing graft file silently.
  GIT_GRAFT_FILE: '/dev/null/no-grafts',
  // git(1) GIT_PAGER: "cat" starts no pager. git-var(1): GIT_EDITOR beats core.editor, and ":"
  // is the editor git does not start (editor.c). Output is a pipe and commits use --file anyway.
  GIT_PAGER: 'cat',
  GIT_EDITOR: ':',
};

/** `git config` with `userScopes` (identity.ts): the caller's global and system config stand. */
export const USER_SCOPES_ENV: Readonly<Record<string, string>> = {
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_GRAFT_FILE: '/dev/null/no-grafts',
  GIT_PAGER: 'cat',
  GIT_EDITOR: ':',
};

/**
 * Command-line scope (GIT_CONFIG_COUNT; git-config(1): it overrides the configuration files)
 * for keys that make git start a program, where the action never needs the repository's value.
 * Keys the checkout may legitimately hold (filter.<driver>.* from `git lfs install --local`,
 * core.sshCommand from actions/checkout's ssh-key, commit signing) keep their pinned value
 * (config-guard.ts). diff.external cannot be emptied here (git then tries to run ""), so every
 * diff the action takes passes --no-ext-diff and --no-textconv.
 */
export const PROTECTIVE_CONFIG: ReadonlyArray<[string, string]> = [
  // githooks(5): the fixer can write .git/hooks.
  ['core.hooksPath', '/dev/null'],
  // git-config(1) core.fsmonitor: a hook command that status, add and diff run.
  ['core.fsmonitor', 'false'],
  // git-config(1) core.useReplaceRefs: with git 2.39 a local `true` beats GIT_NO_REPLACE_OBJECTS.
  ['core.useReplaceRefs', 'false'],
  // gitattributes(5): the default is $XDG_CONFIG_HOME/git/attributes, which a process can write.
  ['core.attributesFile', '/dev/null'],
  // gitignore(5): likewise $XDG_CONFIG_HOME/git/ignore, which would decide what `git add` takes.
  ['core.excludesFile', '/dev/null'],
  // gitcredentials(7): an empty helper resets the list. An empty askPass starts no program (git
  // falls back to the terminal prompt, which GIT_TERMINAL_PROMPT=0 turns off). Both would run
  // inside a network command, whose environment carries the authorization header.
  ['credential.helper', ''],
  ['core.askPass', ''],
  // git-remote-ext(1): an ext:: URL is a command line.
  ['protocol.ext.allow', 'never'],
  // git-config(1) log.showSignature: `git log` would run gpg.program on signed commits.
  ['log.showSignature', 'false'],
  // git-config(1) submodule.recurse: checkout would recurse into submodules a fix declares.
  ['submodule.recurse', 'false'],
];
