import SignetWire

/// Every user-visible string of the passkey pages and the passkey script (which reads its
/// strings from the page's `data-*` attributes, so they are in the page's language).
enum PasskeyText: String, CatalogStrings {
    case signInButton, failed, cancelled, working
    case offerTitle, offerIntro, offerAdd, offerSkip, offerAdded
    case manageTitle, manageIntro, manageNone, manageAdd, manageAddNeedsScript, manageName, manageRename, manageRemove
    case manageCreated, manageLastUsed, manageNeverUsed, manageSynced, manageDeviceBound, manageFlagged, manageBack
    case signedOutTitle, signedOut, notFound, defaultNameSynced, defaultNameDevice
    case manageAddNeedsFreshSignIn, manageReauth
    case resetRemoveLabel, resetRemoveHint, resetKept, resetRemoved
}
