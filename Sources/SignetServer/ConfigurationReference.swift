/// Renders the configuration reference (docs/configuration.md) from the settings in code.
public enum ConfigurationReference {
    /// The reference as Markdown.
    public static func markdown() -> String {
        var text = """
        # Configuration reference

        Signet reads one JSON file, `signet.json`, given with `--config FILE`. Every key is optional;
        a missing key takes the default below. Unknown keys are errors, reported with a suggestion,
        so a typo never silently falls back to a default. Secrets are never written inline: they
        are references, `"env:NAME"` (an environment variable) or `"file:PATH"` (a file; relative
        paths are resolved against `data_dir`). The type column gives the range or the values each
        setting accepts; any other value is refused at start, naming the setting's path (such as
        `lifetimes.access_token`). Check a file with `signet check-config FILE`.

        This page is generated from `Sources/SignetServer/Settings.swift` by
        `signet config-reference`; a test keeps the two identical.

        """
        let groups = Settings.sections.map { (key: $0.key, title: $0.title, rows: rows($0)) }
            + [(Settings.client.key, Settings.client.title, rows(Settings.client)),
               (Settings.connection.key, Settings.connection.title, rows(Settings.connection))]
        for (key, title, rows) in groups {
            text += "\n## \(title)" + (key.map { " (`\($0)`)" } ?? "") + "\n\n"
            text += "| key | type | default | meaning |\n|---|---|---|---|\n" + rows
        }
        text += """

        ## Clients

        Clients in the file are written to the store each time the server starts (secrets hashed),
        so `signet clients list` shows them next to clients added with `signet clients add`.
        Removing an entry from the file does not delete the client: use `signet clients remove`.
        Editing a client with the CLI that the file also declares is undone at the next start.

        ## Connections

        Each connection is an upstream identity provider shown as a button on the sign-in page and
        offered by the headless API. Register `{issuer}/oauth2/callback/{id}` as the redirect URI
        at the provider (Apple posts to it with `response_mode=form_post`). Upstream identities are
        keyed by (connection id, issuer, sub), never by email; a new identity creates a
        passwordless account, and links to an existing account only when the provider says the
        email is verified and `allow_linking` is true. `signet connections list` shows them.

        ## Command-line overrides

        `signet serve` takes `--config FILE`, `--listen HOST:PORT` (repeatable), `--issuer URL` and
        `--data DIR`; each overrides the file. Every admin subcommand takes `--config` and `--data`
        too, so it acts on the same store as the server.

        ## Example

        ```json
        {
          "issuer": "https://id.example.com",
          "listen": ["0.0.0.0:8080"],
          "data_dir": "/var/lib/signet",
          "master_key": "env:SIGNET_MASTER_KEY",
          "lifetimes": { "access_token": 600, "refresh_token_reuse_grace": 30 },
          "keys": { "access_token_algorithm": "ES256", "id_token_algorithm": "RS256" },
          "clients": [
            { "id": "native-app", "type": "public", "first_party": true,
              "redirect_uris": ["http://127.0.0.1/callback", "com.example.app:/callback"],
              "post_logout_redirect_uris": ["com.example.app:/logged-out"] },
            { "id": "orders-api", "type": "confidential", "secret": "env:ORDERS_API_SECRET",
              "grant_types": ["client_credentials"], "scope": "orders.read" }
          ],
          "connections": [
            { "id": "google", "type": "google", "client_id": "1234.apps.googleusercontent.com",
              "client_secret": "env:GOOGLE_CLIENT_SECRET", "allow_linking": true },
            { "id": "apple", "type": "apple", "client_id": "com.example.signin",
              "team_id": "ABCDE12345", "key_id": "XYZ987", "private_key": "file:apple-signin.p8" },
            { "id": "github", "type": "github", "client_id": "Iv1.abc", "client_secret": "env:GITHUB_CLIENT_SECRET" },
            { "id": "corp", "type": "oidc", "display_name": "Example Corp SSO", "issuer": "https://login.example.com",
              "client_id": "signet", "client_secret": "env:CORP_SECRET", "home_realm_domains": ["example.com"] }
          ]
        }
        ```

        """
        return text
    }

    /// One table row per setting of `group`.
    private static func rows<Root>(_ group: SettingsGroup<Root>) -> String {
        let cell = { (value: String) in value.replacingOccurrences(of: "|", with: "\\|") }
        return group.map { setting in
            let defaultText = setting.defaultText.map { "`\(cell($0))`" } ?? "not set"
            return "| `\(setting.key)` | \(cell(setting.type)) | \(defaultText) | \(cell(setting.summary)) |\n"
        }.joined()
    }
}
