import Foundation
import SignetStore
import SignetTesting
import Testing

/// Operator roles: one per user, replaced by a new one, removed, and gone with the user.
@Suite("Contract: operator roles", .endToEndLimit)
struct OperatorRoleContractTests {
    @Test(arguments: Backend.allCases)
    func setReplaceRemoveAndCascade(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        try storage.users.insertUser(Fixture.user("user-2", email: "bob@example.com"))
        let roles = storage.operatorRoles
        #expect(try roles.operatorRole(userID: "user-1") == nil)
        try roles.setOperatorRole(OperatorRoleRecord(userID: "user-1", role: "viewer", updatedAt: t0))
        try roles.setOperatorRole(OperatorRoleRecord(userID: "user-1", role: "admin", updatedAt: t0.addingTimeInterval(5)))
        try roles.setOperatorRole(OperatorRoleRecord(userID: "user-2", role: "viewer", updatedAt: t0))
        #expect(try roles.operatorRole(userID: "user-1") == OperatorRoleRecord(userID: "user-1", role: "admin", updatedAt: t0.addingTimeInterval(5)))
        #expect(try roles.operatorRoles().map(\.userID) == ["user-1", "user-2"])
        #expect(try roles.removeOperatorRole(userID: "user-2"))
        #expect(try !roles.removeOperatorRole(userID: "user-2"))
        #expect(try roles.operatorRole(userID: "user-2") == nil)
        // The role goes with its user.
        _ = try storage.users.deleteUser(id: "user-1")
        #expect(try roles.operatorRole(userID: "user-1") == nil)
        #expect(try roles.operatorRoles().isEmpty)
        // A role for a user that does not exist is refused by the database.
        #expect(throws: (any Error).self) { try roles.setOperatorRole(OperatorRoleRecord(userID: "nobody", role: "admin", updatedAt: t0)) }
    }
}
