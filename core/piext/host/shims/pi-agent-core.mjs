// @earendil-works/pi-agent-core (MIT) holds pi's agent loop; extensions
// import only its types, which the loader erases. Nothing runs here.
export {};
