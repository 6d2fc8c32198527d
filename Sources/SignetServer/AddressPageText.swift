/// The strings of a page that only asks for an email address and mails it a code
/// (`SelfServiceRoutes.AddressForm`): every such page's table has these keys, so one form
/// renders any of them.
protocol AddressPageText: CatalogStrings {
    /// The page title.
    static var title: Self { get }
    /// The paragraph above the form.
    static var intro: Self { get }
    /// The address field's label.
    static var email: Self { get }
    /// The submit button.
    static var submit: Self { get }
    /// The link back to the sign-in page.
    static var back: Self { get }
}
