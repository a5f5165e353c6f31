plugins {
    application
}

dependencies {
    implementation(project(":lib:core"))
    testImplementation(projects.util)
}

application {
    mainClass.set("com.k.app.App")
}
