import SignetCore
import SignetWire

/// Every string of changing the account's email: the account page's section and notices, and
/// the pages of the code and link mailed to the new address.
enum EmailChangeText: String, CatalogStrings {
    case heading, newEmailLabel, passwordLabel, submit, freshHint
    case invalidEmail, unchanged, domainRefused, needsFreshSignIn, changed
    case linkTitle, linkBody, linkButton, doneTitle, doneBody, takenTitle, takenBody
    case managedByOrganization, governedDomain, governedTitle
}

extension EmailChangeText {
    /// What a refusal of `UserService.emailChangeRefusal` says.
    init(_ refusal: EmailChangeRefusal) {
        switch refusal {
        case .leavesGovernedDomain: self = .managedByOrganization
        case .entersGovernedDomain: self = .governedDomain
        }
    }
}
