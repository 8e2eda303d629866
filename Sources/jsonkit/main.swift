print("jsonkit")
