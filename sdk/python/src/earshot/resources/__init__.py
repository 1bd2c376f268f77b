"""The API's resources, each as a blocking class and an asyncio one."""
