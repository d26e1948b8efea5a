// The one default of `call-limits` (src/sandbox/call-limits.ts): the input's default, the sandbox's
// when no bounds are given, and each key a partial value leaves out, all read from the same words.
import { expect, it } from 'vitest';
import { DEFAULT_CALL_LIMITS, defaultCallLimits, parseCallLimits } from '../../src/sandbox/call-limits.js';

const GiB = 1024 ** 3;

const MiB = 1024 ** 2;
const LAYERS = { homeBytes: 256 * MiB, diskFloorBytes: GiB, setupMs: 10 * 60_000 };

it('the default is half the memory, 4096 processes, half the CPU weight, 256M layers, 1G free, 10m of setup', () => {
  expect(DEFAULT_CALL_LIMITS).toBe('memory=50% pids=4096 cpu-weight=50 home=256M disk=1G setup=10m');
  expect(defaultCallLimits(8 * GiB)).toEqual({ memoryBytes: 4 * GiB, pids: 4096, cpuWeight: 50, ...LAYERS });
  expect(defaultCallLimits(8 * GiB)).toEqual(parseCallLimits(DEFAULT_CALL_LIMITS, 8 * GiB));
});

it('a value that names some keys takes the default of the others', () => {
  expect(parseCallLimits('pids=64', 16 * GiB)).toEqual({ memoryBytes: 8 * GiB, pids: 64, cpuWeight: 50, ...LAYERS });
  expect(parseCallLimits('memory=max cpu-weight=10 disk=0', 16 * GiB)).toEqual({
    memoryBytes: null,
    pids: 4096,
    cpuWeight: 10,
    homeBytes: 256 * MiB,
    diskFloorBytes: 0,
    setupMs: 10 * 60_000,
  });
});
