import SignetCore
import Testing

struct CommonPasswordsTests {
    @Test func theEmbeddedListIsThere() {
        // 49,058 passwords of 8 to 64 characters among the 100,000 of the source list.
        #expect(CommonPasswords.count == 49_058)
    }

    @Test(arguments: ["password", "12345678", "password123", "qwertyuiop", "iloveyou", "PASSWORD", "Password1"])
    func commonPasswordsAreFound(_ password: String) {
        #expect(CommonPasswords.contains(password))
    }

    @Test(arguments: ["", "correct horse battery staple", "tr0ub4dor&3-zebra", "ünïcödé-Paßwort-2026", "password1234567890xyz",
                      "!!!!!!!"])
    func othersAreNot(_ password: String) {
        #expect(!CommonPasswords.contains(password))
    }

    @Test func theFirstAndLastEntriesAreFound() {
        // The binary search's edges: the list's smallest and largest lines (byte order).
        #expect(CommonPasswords.contains(" Найдено;1"))
        #expect(CommonPasswords.contains("!@#$%^&*()"))
        #expect(CommonPasswords.contains("zzzzzzzzzz"))
    }
}

struct NewPasswordRuleTests {
    @Test func aCommonPasswordIsRefusedWhateverItsCase() {
        for password in ["password123", "Password123", "PASSWORD123"] {
            #expect(throws: UserServiceError.self) { try UserService.checkNewPassword(password) }
        }
        #expect(throws: Never.self) { try UserService.checkNewPassword("a brand new password") }
    }
}
