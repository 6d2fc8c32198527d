/// The native-app sign-in SDK.
public enum SignetKit {}
