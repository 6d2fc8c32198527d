import Testing
@testable import SignetFederation

@Test func SignetFederationLinks() { _ = SignetFederation.self }
