// What an agent call may touch as the sandbox user: its context folder (read), its state home
// (own), and the checkout only for the roles that edit it (the fixer, and the confirmer that
// writes its failing test). Reviewers, the analyzer and the gate get no write access at all,
// whatever their CLI's switches say. Of what setup wrote in HOME (sandbox/setup-layer.ts), the two
// writing roles see the caches only: their CLI holds a model key and starts before its agent runs
// anything; the read-only roles see none of it.
import type { CallAccess } from '../sandbox/sandbox.js';
import type { Invocation } from './types.js';

export function callAccess(inv: Invocation): CallAccess {
  const writes = inv.role === 'fixer' || inv.role === 'confirm';
  const own = { readable: [inv.contextDir], owned: [inv.stateDir] };
  return writes ? { ...own, workTree: inv.cwd, setupHome: 'caches' } : own;
}
