// Package themes holds cairn's colour themes: the schema (pi's theme file
// format and token names, so pi themes work unchanged), the built-in dark and
// light themes embedded in the binary, the loader for user themes in
// ~/.cairn/themes, and the bridge that turns a theme's syntax tokens into a
// chroma style so highlighted code follows the theme.
//
// A theme file is JSON:
//
//	{
//	  "name": "mine",
//	  "vars": {"primary": "#00aaff", "gray": 242},
//	  "colors": { ...every token listed by Tokens()... },
//	  "export": {"pageBg": "#18181e", "cardBg": "#1e1e24", "infoBg": "#3c3728"}
//	}
//
// A colour value is "#rrggbb", a 256-colour palette index (a JSON number from
// 0 to 255), the name of an entry in "vars" (vars may refer to other vars), or
// "" for the terminal's default colour. Every token is required. Keys in
// "colors" that are not cairn tokens (pi's newer status-line tokens, for
// example) are ignored and listed in Theme.Warnings: a misspelt token still
// fails, because the token it was meant to be is then missing.
package themes
