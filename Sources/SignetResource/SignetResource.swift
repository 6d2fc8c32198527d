/// What an API uses to verify Signet access tokens.
public enum SignetResource {}
