// Test preload (NODE_OPTIONS=--require): sends the fetches of an
// extension meant for gitlab.com to the test's fake server
// (CAIRN_TEST_FAKE_URL), so an example with hard-coded hosts can be
// driven without the network. Only for core/piext's tests.
const fake = process.env.CAIRN_TEST_FAKE_URL;
const real = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input.url;
  return real(url.replace(/^https:\/\/(cloud\.)?gitlab\.com/, fake), init);
};
