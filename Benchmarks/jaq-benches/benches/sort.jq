[range(.) | -.] | sort
