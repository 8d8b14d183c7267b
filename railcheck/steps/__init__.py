"""Steps: the parts a round is made of.

Each step owns its actions: it says whether it has anything to do now
(:meth:`Step.available`), checks an action without changing anything
(:meth:`Step.check`, which raises :class:`~railcheck.findings.RuleViolation`
or returns a plan) and carries the plan out (:meth:`Step.apply`).  A title
builds its operating round from a list of steps
(:meth:`railcheck.titles.base.Title.operating_steps`), inserting, replacing or
removing steps of its own.
"""
