"""``boneyard play``: a local web table where a designer plays the set against the agents.

``session`` holds the game and answers for the human's seat only, ``app`` serves it (Starlette),
``faces`` paints the set's printed faces, ``reasons`` says why an agent moved; the page is in
``static/``. The package talks to a game only through its GameSpec (``GameSpec.table``).
"""
