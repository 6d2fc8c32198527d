import SignetCore
import SignetHTTP

extension ErrorRenderer {
    /// Runs a step of a pending authorization request: a request that is unknown, expired or
    /// already used (`FlowError`) is `requestGone()`, any other failure `internalError(context, …)`.
    func continuing(_ context: String, _ step: () throws -> HTTPResponse) -> HTTPResponse {
        do { return try step() } catch is FlowError {
            return requestGone()
        } catch {
            return internalError(context, error)
        }
    }
}
