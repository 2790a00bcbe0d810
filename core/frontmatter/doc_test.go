package frontmatter_test

import (
	"fmt"

	"github.com/cairn-dev/cairn/core/frontmatter"
)

func ExampleParse() {
	d, err := frontmatter.Parse("---\nname: pdf-tools\ntools: Read, Grep\n---\n# PDF tools\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	name, _ := d.String("name")
	tools, _ := d.List("tools")
	fmt.Printf("%s %q %q\n", name, tools, d.Body)
	// Output: pdf-tools ["Read" "Grep"] "# PDF tools\n"
}
