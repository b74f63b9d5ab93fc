"""Boneyard: the host that turns pure game engines into Discord tables."""
