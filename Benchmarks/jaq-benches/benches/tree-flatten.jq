nth(.; 0 | recurse([., .])) | flatten
