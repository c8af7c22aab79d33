"""A game's pages: the views and their forms, what the screen, the step and the board show, how
they word it, and the taps of a deal."""
