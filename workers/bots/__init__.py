"""Bot strategies: a seat's view with its legal actions in, one action out."""
