import SignetWire

/// Every string of the organization page (scope `organization`, docs/organizations.md).
enum OrganizationPickerText: String, CatalogStrings {
    case title, intro, roles, cancel, signedInAs, chooseOne
}
