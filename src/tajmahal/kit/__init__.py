"""The game kit: what every game of the package stands on.

A game is its rules, data, views and pictures (``tajmahal.tajmahal``,
``tajmahal.tikal``, ``tajmahal.java``); the machinery they share lives here, written
once: the converter between values and JSON data (:mod:`.tagged`) and the JSON
texts the referee keeps from one decision to the next (:mod:`.jsontext`).
"""
