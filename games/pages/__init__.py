"""Presenters: the answers the views send that the services and selectors
do not make themselves.  `board` is a player's board partial, rendered once
per view version and kept in the render cache, with the record lines the
page lacks and the "changed since you last looked" Squares; `review` is
each step of an ended game's review, rendered once and kept."""
