"""The SDK's version: it follows the API's (1.0.x for the Earshot API 1.0.0)."""

__version__ = "1.0.0"
