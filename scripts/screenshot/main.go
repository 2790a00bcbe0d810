// Command screenshot turns a terminal capture into a PNG. It reads the text
// `tmux capture-pane -p -e -N` prints (one row per line, colours as SGR
// escapes, trailing spaces kept so that backgrounds reach the edge) and
// draws it cell by cell:
//
//	tmux capture-pane -p -e -N -t cairn > capture.txt
//	go run ./scripts/screenshot -in capture.txt -out shot.png
//
// With no -in it reads standard input.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"strings"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

func main() {
	if err := run(os.Args[1:], os.Stdin); err != nil {
		fmt.Fprintf(os.Stderr, "screenshot: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader) error {
	fl := flag.NewFlagSet("screenshot", flag.ContinueOnError)
	in := fl.String("in", "", "capture to read (default: standard input)")
	out := fl.String("out", "", "PNG file to write (required)")
	cols := fl.Int("cols", 0, "columns (default: the widest line)")
	rows := fl.Int("rows", 0, "rows (default: the number of lines)")
	size := fl.Float64("size", 16, "font size in pixels")
	pad := fl.Int("padding", 12, "margin around the screen in pixels")
	light := fl.Bool("light", false, "use a light terminal's default colours")
	bg := fl.String("bg", "", "default background as #rrggbb")
	fg := fl.String("fg", "", "default foreground as #rrggbb")
	fonts := fl.String("fonts", "", "extra font files tried for characters Go Mono lacks, comma-separated")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-out is required (the PNG to write)")
	}
	theme := termimage.DarkTheme
	if *light {
		theme = termimage.LightTheme
	}
	if *bg != "" {
		v, err := termimage.ParseHex(*bg)
		if err != nil {
			return err
		}
		theme.BG = v
	}
	if *fg != "" {
		v, err := termimage.ParseHex(*fg)
		if err != nil {
			return err
		}
		theme.FG = v
	}
	src := stdin
	if *in != "" {
		f, err := os.Open(*in)
		if err != nil {
			return err
		}
		defer f.Close()
		src = f
	}
	screen, err := termimage.Parse(bufio.NewReader(src), *cols, *rows)
	if err != nil {
		return err
	}
	var extra []string
	if *fonts != "" {
		extra = strings.Split(*fonts, ",")
	}
	fs, err := termimage.LoadFonts(*size, extra...)
	if err != nil {
		return err
	}
	img, err := termimage.Render(screen, termimage.Options{Theme: &theme, Fonts: fs, Padding: *pad})
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", *out, err)
	}
	return f.Close()
}
