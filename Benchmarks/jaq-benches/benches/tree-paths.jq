nth(.; 0 | recurse([., .])) | [paths]
