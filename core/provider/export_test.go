package provider

// PageTitle and MaxTitle are pageTitle and maxTitle, for the external
// tests.
var PageTitle = pageTitle

const MaxTitle = maxTitle
