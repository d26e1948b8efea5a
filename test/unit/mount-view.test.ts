import { expect, it } from 'vitest';
import { bwrapArgs } from '../../src/sandbox/mount-view.js';

const view = {
  hidden: ['/home/runner', '/home/runner/work/_temp'],
  writable: ['/home/runner/work/app/app'],
  readOnly: ['/ctx'],
  // Deeper than .git: a link the PR put in the checkout could have led a named path into .git.
  asIs: ['/home/runner/work/app/app/.git/hooks'],
  protectedPaths: ['/home/runner/work/app/app/.git'],
  cwd: '/home/runner/work/app/app',
};

it("mounts the checkout's .git read-only last, so that no other mount covers it", () => {
  const args = bwrapArgs(view);
  const last = Math.max(args.lastIndexOf('--ro-bind'), args.lastIndexOf('--bind'));
  expect(args.slice(last, last + 3)).toEqual(['--ro-bind', view.protectedPaths[0], view.protectedPaths[0]]);
  expect(args.at(-2)).toBe('--chdir');
});

it('hides the outermost hidden folder behind an empty one and enters the folders down to the checkout', () => {
  const args = bwrapArgs(view);
  expect(args.join(' ')).toContain('--perms 0755 --tmpfs /home/runner ');
  expect(args.join(' ')).not.toContain('--tmpfs /home/runner/work/_temp');
  expect(args.join(' ')).toContain('--perms 0711 --dir /home/runner/work/app ');
  expect(args.join(' ')).toContain('--perms 1777 --tmpfs /tmp');
});
