// What a confirmer may change: test files only (docs/decisions/0013-proven-confirmation.md).
import { expect, it } from 'vitest';
import { isTestFile } from '../../src/fix/test-files.js';

it.each([
  'test/add.test.js',
  'tests/test_math.py',
  'src/__tests__/add.ts',
  'spec/models/user_spec.rb',
  'pkg/math_test.go',
  'src/add.spec.ts',
  'test.js',
  'app/src/test/java/MathTest.java',
  'e2e/flow.ts',
  'lib/math_test.py',
])('%s is a test file', (p) => expect(isTestFile(p)).toBe(true));

it.each([
  'src/math.js',
  'package.json',
  'testing.md',
  'src/contest.js',
  'latest/add.js',
  '.github/workflows/ci.yml',
  'src/attest.py',
  'Makefile',
])('%s is not', (p) => expect(isTestFile(p)).toBe(false));
