// What counts as a test file: a confirmer may add or change only these. The usual
// layouts of the ecosystems the action meets: a test folder anywhere in the path, or a test
// file name (JavaScript/TypeScript `*.test.*`/`*.spec.*`, Python `test_*.py`/`*_test.py`, Go
// `*_test.go`, Ruby `*_spec.rb`/`*_test.rb`, JVM and .NET `*Test(s).*`/`*Spec.*`).
const TEST_DIR = /(^|\/)(tests?|__tests__|specs?|testing|e2e|__snapshots__)\//i;
const TEST_NAME = [
  /\.(test|spec)\.[^/]+$/i,
  /(^|\/)tests?\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]+\.py$/,
  /_test\.(go|py|rb|exs?)$/,
  /_spec\.rb$/,
  /(Tests?|Spec|IT)\.(java|kt|kts|scala|groovy|cs|fs|swift)$/,
];

export function isTestFile(path: string): boolean {
  return TEST_DIR.test(path) || TEST_NAME.some((re) => re.test(path));
}
