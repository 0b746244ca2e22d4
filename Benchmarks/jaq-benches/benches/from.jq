[limit(.; 0 | recurse(.+1))]
