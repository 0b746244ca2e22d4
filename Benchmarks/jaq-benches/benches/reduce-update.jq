reduce range(.) as $x ([[]]; .[0] += [$x])
