nth(.; 0 | recurse([., .])) | [contains(.)]
