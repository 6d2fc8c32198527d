import SignetWire

/// Every user-visible string of the console (`ConsoleRoutes`) and the landing page at `/`.
enum ConsoleText: String, CatalogStrings {
    case navigation, dashboardTitle, appsTitle, usersTitle, connectionsTitle, keysTitle, auditTitle, signedInAs
    case roleAdmin, roleViewer, signOut, signedOutTitle, signedOut, signInAgain, signedInTitle, openConsole, sessionEnded, noRoleTitle
    case noRole, notAllowedTitle, notAllowed, notFoundTitle, notFound, signInIncompleteTitle, signInIncomplete, signInsToday
    case failuresToday, serverErrors, outboxDepth, keyAgesHeading, keyAgeDays, noKeys, newApp, newAppTitle
    case noApps, appName, clientID, clientIDHint, appType, typeNative, typeNativeHint, typeWeb
    case typeWebHint, typeService, typeServiceHint, typeAPI, typeAPIHint, redirectURIs, rulesHeading, rulePrivateUse
    case ruleClaimed, ruleLoopback, ruleExact, ruleNoSecret, uriOK, uriPrivateConfidential, uriNoneAllowed, pickType
    case fieldProblem, createApp, issuerLabel, secretLabel, hasSecret, noSecret, secretHeading, secretOnce
    case quickStartHeading, quickStartHint, editHeading, save, rotateSecretHeading, rotateSecretHint, rotateSecret, deleteAppHeading
    case deleteAppHint, deleteApp, searchUsers, search, noUsers, email, status, active
    case disabled, enabled, userID, consoleRole, created, sessionsHeading, noSessions, sessionDetail
    case actionsHeading, disableUser, enableUser, revokeUser, deleteUser, noConnections, callbackURL, lastError
    case lastSuccess, none, keyID, algorithm, rotateKeysHeading, rotateKeysHint, rotateKeys, eventFilter
    case actorFilter, filter, noEvents, time, event, actor, subject, reason
    case older, noticeAppSaved, noticeAppDeleted, noticeUserDisabled, noticeUserEnabled, noticeUserDeleted, noticeUserRevoked, noticeKeysRotated
    case confirmDelete, noticeDeleteNotConfirmed, grantsHeading, noGrants, revokeGrant, consentsHeading, noConsents, revokeConsent
    case endSession, mfaHeading, mfaState, mfaReset, noticeMFAReset, noticeItemEnded, landingTitle, landingIntro
    case landingAccount, landingDiscovery, landingJWKS, landingDocs
    case rulesHeadingWeb, ruleWebHTTPS, ruleWebNoPrivateUse
    case orgsTitle, noOrgs, orgName, orgSlug, orgID, newOrgHeading, createOrg, membersHeading, noMembers, memberRole, changeRole, removeMember, addMemberHeading, memberUser, addMember, invitationsHeading, noInvitations, inviteHeading, invite, resendInvitation, revokeInvitation, domainsHeading, noDomains, domainVerified, domainUnverified, domainPolicy, txtRecord, verifyDomain, markVerified, claimDomainHeading, domainName, claimDomain, noticeOrgCreated, noticeMemberAdded, noticeInvitationSent, noticeDomainClaimed, noticeOrgSaved
}
