// Package main is a demo.​ Its doc comment is prose.
package main

import "fmt"

//go:generate echo directives are never touched
func main() {
	fmt.Println("a string literal keeps its​carrier") // prose⁠comment
}
