/// Signet as a client of upstream providers (Google, Apple, GitHub, any OpenID provider).
public enum SignetFederation {}
