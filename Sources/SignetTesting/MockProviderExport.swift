// The mock upstream provider lives in its own small target so `signet serve --demo` can run one
// without linking the test kit; tests keep reaching it through SignetTesting.
@_exported import SignetMockProvider
