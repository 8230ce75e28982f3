"""Accounts: sign up, log in and out, and the page for a login django-axes has locked out."""
