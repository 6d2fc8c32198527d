import Foundation
import SignetCore
import SignetServer
import SignetStore

/// `signet orgs domains add|verify|bind|list|remove ORG [DOMAIN]`: an organization's email-domain
/// claims (docs/organizations.md). A refusal (a domain claimed twice, a missing TXT record, …)
/// prints why and exits 1 with nothing changed.
enum DomainsCommand {
    static let usage = """
        signet orgs domains add ORG DOMAIN                 claim DOMAIN for ORG; prints the TXT record to publish
        signet orgs domains verify ORG DOMAIN [--operator] check the TXT record (or mark it verified as the operator)
        signet orgs domains bind ORG DOMAIN --connection ID [--policy sso_required|optional]
                                                           send DOMAIN's users to connection ID (home-realm discovery)
        signet orgs domains list ORG                       the claims and their state
        signet orgs domains remove ORG DOMAIN              drop the claim
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(["connection", "policy"]), flags: ["operator"])
        let positionals = arguments.positionals
        guard let action = positionals.first, positionals.count >= 2 else { throw UsageError("orgs domains needs add, verify, bind, list or remove, then ORG\n\(usage)") }
        let configuration = try CommonOptions.configuration(arguments)
        let environment = try ServerEnvironment.open(configuration)
        let claims = environment.makeDomainClaims()
        // ORG: the organization's id or its slug.
        let organizations = environment.storage.organizations
        guard let organization = try organizations.organization(id: positionals[1]) ?? organizations.organization(slug: positionals[1]) else {
            throw UsageError("no organization \"\(positionals[1])\"")
        }
        let organizationID = organization.id
        func domain() throws(UsageError) -> String {
            guard positionals.count == 3 else { throw UsageError("orgs domains \(action) needs ORG and DOMAIN") }
            return positionals[2]
        }
        switch action {
        case "add":
            let record = try claims.claim(try domain(), organizationID: organizationID)
            Output.print("claimed \(record.domain) for \(organizationID); publish this TXT record, then run verify:")
            Output.print("  \(DomainProof.recordName(record.domain))  TXT  \"\(DomainProof.recordValue(record.verificationToken))\"")
        case "verify":
            let record = arguments.flag("operator")
                ? try claims.verifyByOperator(try domain(), organizationID: organizationID)
                : try claims.verifyByDNS(try domain(), organizationID: organizationID, resolver: environment.txtResolver)
            Output.print("\(record.domain) verified (\(record.verifiedBy?.rawValue ?? "-"))")
        case "bind":
            guard let connection = arguments.value("connection") else { throw UsageError("orgs domains bind needs --connection ID") }
            guard configuration.connections.contains(where: { $0.connection.id == connection }) else {
                throw UsageError("no connection \"\(connection)\" in the configuration (see signet connections list)")
            }
            let policyText = arguments.value("policy") ?? OrganizationDomainRecord.Policy.optional.rawValue
            guard let policy = OrganizationDomainRecord.Policy(rawValue: policyText) else {
                throw UsageError("--policy must be sso_required or optional")
            }
            let record = try claims.bind(try domain(), organizationID: organizationID, connectionID: connection, policy: policy)
            Output.print("\(record.domain) → \(connection) (\(policy.rawValue))")
        case "list":
            guard positionals.count == 2 else { throw UsageError("orgs domains list needs ORG only") }
            Output.print("DOMAIN                         VERIFIED   CONNECTION           POLICY")
            for record in try claims.claims(organizationID: organizationID) {
                Output.print(pad(record.domain, 30) + " " + pad(record.verifiedBy?.rawValue ?? "no", 10) + " "
                             + pad(record.connectionID ?? "-", 20) + " " + record.policy.rawValue)
                if record.verifiedAt == nil {
                    Output.print("    publish \(DomainProof.recordName(record.domain)) TXT \"\(DomainProof.recordValue(record.verificationToken))\"")
                }
            }
        case "remove":
            try claims.remove(try domain(), organizationID: organizationID)
            Output.print("removed")
        default:
            throw UsageError("orgs domains needs add, verify, bind, list or remove\n\(usage)")
        }
        return 0
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
