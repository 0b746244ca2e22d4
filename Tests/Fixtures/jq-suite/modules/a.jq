module {version:1.7};
def a: "a";
