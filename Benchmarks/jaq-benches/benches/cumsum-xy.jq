[foreach range(.) as $x (0; . + $x; $x, .)]
