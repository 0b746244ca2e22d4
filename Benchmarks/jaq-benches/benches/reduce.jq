reduce range(.) as $x ([]; . + [$x + .[-1]])
