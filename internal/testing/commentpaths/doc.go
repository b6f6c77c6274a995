// Package commentpaths holds the test that every repository path a comment names is there: a
// comment that points a reader at a file that was moved or renamed sends them nowhere.
package commentpaths
