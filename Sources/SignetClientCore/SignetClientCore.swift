/// Relying-party logic shared by SignetKit, SignetFederation and SignetResource.
public enum SignetClientCore {}
