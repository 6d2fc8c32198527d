import Foundation
import SignetCLI

let status = await SignetCommandLine.main(Array(CommandLine.arguments.dropFirst()))
// Leave without running C exit handlers: OpenSSL's clean-up frees its locks while background
// threads (key refresh, WAL checkpoints, upstream key caches) may still hold them. Everything that
// matters is already written: output goes straight to the descriptors, and SQLite has committed.
fflush(nil)
_exit(status)
