// Package mdline classifies the lines of a Markdown memory file (front matter, fences, fenced and indented code, headings, tables, prose) so the gate and the cutter agree on what may be touched.
package mdline
