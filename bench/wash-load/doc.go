// Command wash-load measures real projects' memory the way the memory lane sees it: for each
// project directory given (a checkout or an extracted snapshot, never written), with an empty
// home, the tokens each platform loads every session, the tokens written for a platform that
// never reach it, and what a quick pass would save per platform, with every cut it would make
// (-cuts) for a person to judge line by line.
//
//	go run ./bench/wash-load [-cuts] DIR...
//
// Each directory is copied to a temporary project first (with a .git marker when it has none),
// so the snapshot is never touched and a quick dry run sees a project like any other.
package main
