"""Behaviour shared by titles, and title-specific rule modules named by rulesets."""
